import { runtimeProblem } from './runtime';

describe('runtimeProblem', () => {
  it.each(['22.12.0', '22.23.3', '24.1.0'])('accepts Node %s', (version) => {
    expect(runtimeProblem(version)).toBeUndefined();
  });

  it.each(['20.20.2', '22.11.9', '18.20.0'])(
    'refuses Node %s, saying how to start it',
    (version) => {
      expect(runtimeProblem(version)).toBe(
        `Atrium runs on Node.js 22.12 or later, not ${version}: start it with npm start or npm run cli, ` +
          'whose scripts run the Node 22 that npm install fetched (the node package), or install Node.js 22',
      );
    },
  );
});
