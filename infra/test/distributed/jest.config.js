// The distributed profile as separate processes over Redis Streams (ARCHITECTURE §8.6).
module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'distributed',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
