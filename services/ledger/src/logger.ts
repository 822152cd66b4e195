/** The smallest logger the ledger needs; a pino logger fits. */
export interface LedgerLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: LedgerLogger = { debug() {}, info() {}, warn() {}, error() {} };
