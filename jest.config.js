// Every backend jest project: unit, service, contract and system tests (ARCHITECTURE §8).
module.exports = {
  projects: [
    '<rootDir>/libs/contracts',
    '<rootDir>/libs/store',
    '<rootDir>/libs/bus',
    '<rootDir>/libs/platform',
    '<rootDir>/services/auth',
    '<rootDir>/services/social',
    '<rootDir>/services/reviews',
    '<rootDir>/services/squads',
    '<rootDir>/services/messaging',
    '<rootDir>/services/notifications',
    '<rootDir>/gateway',
    '<rootDir>/infra/test',
    '<rootDir>/infra/test/distributed',
    '<rootDir>/infra/test/multihost',
    '<rootDir>/infra/k8s',
    '<rootDir>/infra/launcher',
    '<rootDir>/infra/test/browser',
  ],
};
