import { existsSync } from 'node:fs';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AdminCommandsService, CommandOutput } from './cli/admin-commands.service';
import { CliCommand, parseCommand, USAGE } from './cli/cli.arguments';
import { openCliDatabase } from './cli/cli.database';
import {
  CommandFailedError,
  describeError,
  EXIT_FAILED,
  EXIT_OK,
  UsageError,
} from './cli/cli.errors';
import { CLI_POOL_SIZE, CliModule } from './cli/cli.module';
import { runtimeProblem } from './common/runtime';
import { Environment, validateEnvironment } from './config/environment';
import { ConversionError, convertPgliteDataDir } from './database/pglite-conversion';

/** Admin commands: `npm run cli -- help`. */
async function main(argv: string[]): Promise<number> {
  const runtime = runtimeProblem();
  if (runtime) {
    process.stderr.write(`atrium: ${runtime}\n`);
    return EXIT_FAILED;
  }
  try {
    const command = parseCommand(argv);
    if (command.name === 'help') {
      process.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (existsSync('.env')) process.loadEnvFile('.env');
    const output = await run(command, readEnvironment());
    for (const line of output.stderr) process.stderr.write(`${line}\n`);
    for (const line of output.stdout) process.stdout.write(`${line}\n`);
    return EXIT_OK;
  } catch (error) {
    const { exitCode, message, showUsage } = describeError(error);
    process.stderr.write(`atrium: ${message}\n`);
    if (showUsage) process.stderr.write(`\n${USAGE}`);
    return exitCode;
  }
}

function readEnvironment(): Environment {
  try {
    return validateEnvironment(process.env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The commands that run on the database through the app's services. */
type DatabaseCommand = Exclude<CliCommand, { name: 'help' | 'db:convert-pglite' }>;

function run(command: Exclude<CliCommand, { name: 'help' }>, env: Environment) {
  return command.name === 'db:convert-pglite' ? convertPglite(env) : runOnDatabase(command, env);
}

async function runOnDatabase(command: DatabaseCommand, env: Environment): Promise<CommandOutput> {
  // One connection beyond the pool, as the server leaves spare ones for this CLI.
  const database = await openCliDatabase(env, CLI_POOL_SIZE + 1).catch(cannotOpenDatabase);
  let context: INestApplicationContext | undefined;
  try {
    // Silent: failures reach main() as exceptions and are reported once, there.
    context = await NestFactory.createApplicationContext(CliModule.forRoot(database.url), {
      logger: false,
      abortOnError: false,
    }).catch(cannotOpenDatabase);
    return await execute(context.get(AdminCommandsService), command);
  } finally {
    await context?.close();
    await database.close();
  }
}

async function convertPglite(env: Environment): Promise<CommandOutput> {
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  const { tables, rows, backup } = await convertPgliteDataDir(env.DATA_DIR, progress).catch(
    (error: Error) => {
      throw error instanceof ConversionError ? new CommandFailedError(error.message) : error;
    },
  );
  return {
    stdout: [`Converted ${rows} rows of ${tables} tables into the embedded PostgreSQL server.`],
    stderr: [`The PGlite files are kept in ${backup}: delete them once the server runs.`],
  };
}

/** Unreachable server, wrong credentials, a DATA_DIR in use or unwritable: not a bug here. */
function cannotOpenDatabase(error: Error): never {
  throw new CommandFailedError(`Cannot open the database: ${error.message}`);
}

function execute(commands: AdminCommandsService, command: DatabaseCommand): Promise<CommandOutput> {
  switch (command.name) {
    case 'org:create':
      return commands.createOrganization(command);
    case 'user:create':
      return commands.createUser(command);
    case 'apikey:create':
      return commands.createApiKey(command);
    case 'role:grant':
      return commands.grantRoles(command);
  }
}

// Exit explicitly: a pg socket left behind must not keep the shell waiting.
void main(process.argv.slice(2)).then((code) => process.exit(code));
