// @ts-check
/**
 * The layers of src/, from the bottom: a folder imports only folders of the layers below
 * its own (docs/development.md, "Layers"). Folders of one layer know nothing of each other. Two are
 * files directly in src/: `app` (the app module and its setup, the public surface
 * atrium.ts) and `entry` (main.ts and cli.ts, what node runs).
 */
const LAYERS = [
  ['common'], //                     helpers that know no other folder
  ['config'], //                     the validated environment
  ['logging', 'database'], //        log lines; the data source, migrations, SQL, transactions
  ['http'], //                       the HTTP platforms and what every route shares
  ['model'], //                      entity types, their registry and decorators
  ['access'], //                     roles as they apply: the AccessScope
  ['fetch', 'changes', 'queue'], //  the FETCH query language; the change log; the job queue
  ['entity'], //                     the entity engine: CRUD with child groups and hooks
  ['data'], //                       ScopedData, what application code reads and writes with
  ['directory', 'workflow', 'storage'], // organizations/users/roles; workflows; files
  ['auth'], //                       signing in: sessions, API keys, OpenID Connect
  ['events'], //                     after-commit events, jobs and their handlers
  ['webhooks'], //                   events sent to the URLs administrators name
  ['metadata', 'demo', 'console', 'health'], // schema API and OpenAPI; the demo domain
  ['app'], //                        the app's composition, the public surface
  ['cli', 'tools'], //               admin commands, developer tools
  ['entry'], //                      main.ts, cli.ts
];

const FILES = { app: '(app\\.[^/]+|atrium\\.ts)$', entry: '(main|cli)\\.ts$' };
const folderOf = (name) => FILES[name] ?? `${name}/`;
const anyOf = (names) => `^src/(${names.map(folderOf).join('|')})`;

/** A rule per folder: nothing of its own layer but itself, nothing above. */
const layerRules = LAYERS.flatMap((layer, level) =>
  layer.flatMap((folder) => {
    const notBelow = LAYERS.slice(level)
      .flat()
      .filter((other) => other !== folder);
    if (notBelow.length === 0) return [];
    return {
      name: `layer-${folder}`,
      comment: `${folder} may import only the layers below it (.dependency-cruiser.cjs)`,
      severity: 'error',
      from: { path: anyOf([folder]) },
      to: { path: anyOf(notBelow) },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-circular',
      comment:
        "A cycle of imports; only TypeORM's entity classes may refer to each other (a relation and its inverse)",
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, via: { pathNot: '\\.entity\\.ts$' } },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import of a module that cannot be found',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/queries/' },
    // Type-only imports count: a type of a layer above is a dependency on it all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
