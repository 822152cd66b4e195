/**
 * Shows that a long call is alive: a spinner with elapsed seconds when stderr is a terminal,
 * one line otherwise (logs and CI keep no animation). Writes only to stderr, so stdout stays
 * clean for --json.
 */
export function startProgress(label: string, stream: NodeJS.WriteStream = process.stderr): { note(text: string): void; say(line: string): void; stop(): void } {
  const started = Date.now();
  if (!stream.isTTY) {
    stream.write(`${label}…\n`);
    return { note: (text) => stream.write(`${text}\n`), say: (line) => stream.write(`${line}\n`), stop: () => {} };
  }
  const frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
  let i = 0;
  let extra = "";
  const draw = () => stream.write(`\r${frames[i++ % frames.length]} ${label} ${((Date.now() - started) / 1000).toFixed(0)} s${extra}\x1b[K`);
  draw();
  const timer = setInterval(draw, 100);
  return {
    note(text) {
      extra = ` (${text})`;
    },
    // A line that stays: printed above the spinner, which goes on below it.
    say(line) {
      stream.write(`\r\x1b[K${line}\n`);
      draw();
    },
    stop() {
      clearInterval(timer);
      stream.write("\r\x1b[K");
    },
  };
}
