// Loaded with `node --import` into a CLI run by a test: every fetch is recorded on stderr and
// refused, so a test can show that nothing would have been sent without any traffic leaving
// the machine.
globalThis.fetch = async (input: string | URL | Request) => {
  const url = input instanceof Request ? input.url : String(input);
  process.stderr.write(`BLOCKED-FETCH ${url}\n`);
  throw new TypeError("fetch blocked by the test (no traffic leaves this machine)");
};
