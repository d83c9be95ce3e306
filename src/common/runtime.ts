/** The oldest Node.js the server runs on: pg-boss 12's floor. */
const OLDEST = { major: 22, minor: 12 };

/**
 * Why this Node.js cannot run the server, if it cannot. The install does not check it:
 * npm 10 on Node 20 installs the project and with it the `node` package, the Node 22 that
 * npm's scripts run (package.json's `engines` is what the install itself runs on).
 */
export function runtimeProblem(version = process.versions.node): string | undefined {
  const [major, minor] = version.split('.').map(Number);
  if (major > OLDEST.major || (major === OLDEST.major && minor >= OLDEST.minor)) return undefined;
  return (
    `Atrium runs on Node.js ${OLDEST.major}.${OLDEST.minor} or later, not ${version}: ` +
    `start it with npm start or npm run cli, whose scripts run the Node ${OLDEST.major} ` +
    `that npm install fetched (the node package), or install Node.js ${OLDEST.major}`
  );
}
