// Runs before every suite's modules load: cheap password hashing in tests (the cost is a
// setting, not a behaviour under test).
process.env.BCRYPT_ROUNDS ??= '4';
