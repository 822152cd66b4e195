/** A mistake in how the command was called: printed with a hint, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
  /** False when the message already says what to do (a "did you mean"), so no pointer to --help follows. */
  readonly seeHelp: boolean;

  constructor(message: string, { seeHelp = true }: { seeHelp?: boolean } = {}) {
    super(message);
    this.seeHelp = seeHelp;
  }
}
