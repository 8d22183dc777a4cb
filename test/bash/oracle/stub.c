#include <fcntl.h>
#include <stdlib.h>
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
/*
 * Records its argv (NUL-separated, after the path it was run as and the argument count) to LOG in one append and
 * exits 0. Built with SHELL, it then runs that bash with xtrace on fd 9, so that what a nested bash runs is
 * recorded too.
 */
int main(int argc, char **argv) {
  char count[16], tmp[16];
  int k = 0, a = argc - 1;
  do {
    tmp[k++] = (char)('0' + a % 10);
    a /= 10;
  } while (a);
  for (int i = 0; i < k; i++) count[i] = tmp[k - 1 - i];
  count[k] = 0;
  put("S");
  const char *exe = (const char *)getauxval(AT_EXECFN);
  put(exe ? exe : argv[0]);
  put(count);
  for (int i = 1; i < argc; i++) put(argv[i]);
  int fd = open(LOG, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd >= 0) {
    (void)!write(fd, buf, n);
    close(fd);
  }
#ifdef SHELL
  char **args = calloc((size_t)argc + 2, sizeof *args);
  if (!args) return 0;
  args[0] = argv[0];
  args[1] = "-x";
  for (int i = 1; i < argc; i++) args[i + 1] = argv[i];
  setenv("BASH_XTRACEFD", "9", 1);
  setenv("PS4", PS4, 1);
  execv(SHELL, args);
#endif
  return 0;
}
