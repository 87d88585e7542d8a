// A 2-core CI machine running suites side by side is slow: generous time-outs everywhere.
jest.setTimeout(Number(process.env.JEST_TIMEOUT_MS ?? 60_000));
