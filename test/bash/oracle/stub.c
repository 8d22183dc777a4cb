#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
static char buf[1 << 20];
static size_t n;
static void put(const char *s) {
  size_t l = strlen(s) + 1;
  if (n + l > sizeof buf) return;
  memcpy(buf + n, s, l);
  n += l;
}
/* Records its argv (NUL-separated, with the path it was run as) to LOG and exits 0. */
int main(int argc, char **argv) {
  char count[16];
  int k = 0, a = argc - 1;
  char tmp[16];
  do { tmp[k++] = (char)('0' + a % 10); a /= 10; } while (a);
  for (int i = 0; i < k; i++) count[i] = tmp[k - 1 - i];
  count[k] = 0;
  put("S");
  const char *exe = (const char *)getauxval(AT_EXECFN);
  put(exe ? exe : argv[0]);
  put(count);
  for (int i = 1; i < argc; i++) put(argv[i]);
  int fd = open(LOG, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd >= 0) { (void)!write(fd, buf, n); close(fd); }
  return 0;
}
