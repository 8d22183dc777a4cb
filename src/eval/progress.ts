/** A progress bar on stderr when it is a terminal; nothing otherwise. */
export interface Progress {
  start(total: number, label: string): void;
  tick(): void;
  stop(): void;
}

const SILENT: Progress = { start() {}, tick() {}, stop() {} };

export async function progressBar(stream: NodeJS.WriteStream = process.stderr): Promise<Progress> {
  if (stream.isTTY !== true) return SILENT;
  const { default: cliProgress } = await import('cli-progress');
  let bar: InstanceType<typeof cliProgress.SingleBar> | undefined;
  return {
    start(total, label) {
      bar?.stop();
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: `${label} {bar} {value}/{total} cases | {duration_formatted}`,
          hideCursor: true,
          clearOnComplete: true,
          barsize: 30,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    tick() {
      bar?.increment();
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
