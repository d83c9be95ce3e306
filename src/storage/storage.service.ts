import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { etagMatches } from '../http/etag';
import { parseKey } from '../http/parse-key.pipe';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { Identity } from '../common/identity';
import { Environment, StorageDriver } from '../config/environment';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { FormLimits, formParts } from '../http/multipart-form';
import { StorageBackend, STORAGE_BACKENDS, StoredBytes } from './backends/storage-backend';
import { FileRepository, RecordedOwner, VersionRecord } from './file.repository';
import { actorOf, ChangeEntry, ChangeLog } from '../changes/change-log.service';
import { ownerOfRow } from '../model/owner';
import { unstorableDetail, unstorableProblem } from '../http/unstorable-text';
import { dispositionOf, isActiveContent, rangeOf, storedContentType } from './storage.http';

/** POST /storage's answer: the version just stored. */
export interface StoredFileDto {
  id: number;
  version: number;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
  dateCreated: Date;
}

export type VersionDto = Omit<StoredFileDto, 'id'>;

export interface DownloadRequest {
  id?: string;
  version?: string;
  action?: string;
  range?: string;
  ifNoneMatch?: string;
}

/** What GET /storage answers: a status, its headers, and the bytes for 200 and 206. */
export interface Download {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  body?: Readable;
}

const FORM_FIELDS = new Set(['id', 'name']);
const MAX_NAME_LENGTH = 255;

/** Versioned files (spec 4.5): uploads stream in, downloads stream out, by organization. */
@Injectable()
export class StorageService {
  private readonly backend: StorageBackend;
  private readonly formLimits: FormLimits;

  constructor(
    @Inject(STORAGE_BACKENDS) private readonly backends: Record<StorageDriver, StorageBackend>,
    private readonly files: FileRepository,
    private readonly transactions: Transactions,
    private readonly access: AccessService,
    private readonly changeLog: ChangeLog,
    config: ConfigService<Environment, true>,
  ) {
    this.backend = backends[config.get('STORAGE_DRIVER', { infer: true })];
    // A file and its two fields (id, name), with room for the form's own mistakes.
    this.formLimits = {
      fileSize: config.get('MAX_UPLOAD_BYTES', { infer: true }),
      files: 1,
      fields: 5,
      fieldSize: 1024,
      parts: 6,
    };
  }

  /**
   * A multipart upload: `file` (the bytes), `id` (a new version of that file) and `name`.
   * With a database backend the bytes and the record are one transaction; with a file
   * system the bytes are durable first and recorded after, so a cut leaves no record.
   */
  async upload(identity: Identity, request: IncomingMessage): Promise<StoredFileDto> {
    const scope = await this.access.scopeOf(identity);
    const version = this.backend.transactional
      ? await this.transactions.run((tx) => this.receive(request, scope, tx))
      : await this.receive(request, scope);
    return { id: version.fileKey, ...versionDto(version) };
  }

  async download(identity: Identity, ask: DownloadRequest): Promise<Download> {
    const fileKey = this.key(ask.id, 'id');
    if (fileKey === undefined) throw new BadRequestException('id is required: the key of the file');
    const versionNumber = this.key(ask.version, 'version');
    if (ask.action !== undefined && ask.action !== 'view' && ask.action !== 'download') {
      throw new BadRequestException('action is "download" or "view"');
    }
    const version = await this.files.findVersion(
      fileKey,
      versionNumber,
      await this.access.scopeOf(identity),
    );
    if (!version) {
      throw new NotFoundException(
        versionNumber === undefined
          ? `No file ${fileKey}`
          : `No version ${versionNumber} of file ${fileKey}`,
      );
    }
    const etag = `"${version.sha256}"`;
    const headers: Record<string, string> = {
      ETag: etag,
      'Cache-Control': 'private, no-cache',
      'Accept-Ranges': 'bytes',
      'X-Content-Type-Options': 'nosniff',
    };
    if (ask.ifNoneMatch && etagMatches(ask.ifNoneMatch, etag)) return { status: 304, headers };
    const range = rangeOf(ask.range, version.size);
    if (range === 'unsatisfiable') {
      return { status: 416, headers: { ...headers, 'Content-Range': `bytes */${version.size}` } };
    }
    Object.assign(headers, {
      'Content-Type': version.contentType,
      'Content-Disposition': dispositionOf(
        version.name,
        ask.action === 'download' ? 'download' : 'view',
        version.contentType,
      ),
      // What the bytes may do if a browser opens them anyway: nothing.
      'Content-Security-Policy': `default-src 'none'; sandbox${isActiveContent(version.contentType) ? '' : ' allow-downloads'}`,
    });
    const body = await this.backends[version.driver].read(version.sha256, version.size, range);
    if (!range)
      return { status: 200, headers: { ...headers, 'Content-Length': String(version.size) }, body };
    return {
      status: 206,
      headers: {
        ...headers,
        'Content-Length': String(range.end - range.start + 1),
        'Content-Range': `bytes ${range.start}-${range.end}/${version.size}`,
      },
      body,
    };
  }

  async versions(identity: Identity, fileKey: number): Promise<VersionDto[]> {
    const scope = await this.access.scopeOf(identity);
    const versions = await this.files.listVersions(fileKey, scope);
    if (versions.length === 0) throw new NotFoundException(`No file ${fileKey}`);
    return versions.map(versionDto);
  }

  /** Reads the form's parts in order, the bytes streamed to the backend as they come. */
  private async receive(
    request: IncomingMessage,
    scope: AccessScope,
    tx?: Transaction,
  ): Promise<VersionRecord> {
    const fields: Record<string, string> = {};
    let bytes: (StoredBytes & { filename: string; mimetype: string }) | undefined;
    const parts = formParts(request, this.formLimits);
    try {
      for (;;) {
        const next = await parts.next().catch((error: unknown) => {
          throw unreadableForm(error);
        });
        if (next.done) break;
        const part = next.value;
        if (part.type === 'field') {
          if (!FORM_FIELDS.has(part.fieldname)) {
            throw new BadRequestException(
              `Unknown form field "${part.fieldname}": send file, id and name`,
            );
          }
          fields[part.fieldname] = checked(part.fieldname, part.value);
          continue;
        }
        if (part.fieldname !== 'file' || bytes) {
          throw new BadRequestException('Send one file, in the form field "file"');
        }
        // What came before the bytes is checked before they are stored.
        if (fields.name === undefined) checked('The file name', part.filename);
        await this.assertMayStore(this.key(fields.id, 'id'), scope, tx);
        // The part's stream fails when the form does (cut short, over the size limit): the
        // client's error. Anything else failing the write (the disk) is the server's.
        let formError: unknown;
        part.file.once('error', (error) => (formError = error));
        const stored = await this.backend.write(part.file, tx).catch((error: unknown) => {
          const fromForm = formError ?? part.file.errored; // it may have failed before we listened
          throw fromForm ? unreadableForm(fromForm) : error;
        });
        bytes = { ...stored, filename: part.filename, mimetype: part.mimetype };
      }
    } finally {
      await parts.return(undefined); // as for-await does: the form is let go on any exit
    }
    if (!bytes) throw new BadRequestException('The form has no field "file": send the bytes in it');
    const name = fields.name ?? bytes.filename;
    const fileKey = this.key(fields.id, 'id');
    const newVersion = {
      name,
      contentType: storedContentType(bytes.mimetype),
      size: bytes.size,
      sha256: bytes.sha256,
      driver: this.backend.driver,
    };
    return this.transactions.run(async (tx) => {
      const version = await this.files.record(fileKey, newVersion, scope, tx);
      if (!version) throw new NotFoundException(`No file ${fileKey}`);
      if (this.changeLog.logs(this.files.type)) {
        this.changeLog.record(tx, actorOf(scope.identity), versionEntries(version));
      }
      return version;
    }, tx);
  }

  /** Before any byte is stored: a new file needs create, a new version write on its file. */
  private async assertMayStore(
    fileKey: number | undefined,
    scope: AccessScope,
    tx?: Transaction,
  ): Promise<void> {
    if (fileKey === undefined) {
      if (!scope.may(this.files.type, 'create')) {
        throw new ForbiddenException('You may not create files');
      }
      return;
    }
    const access = await this.files.access(fileKey, scope, tx);
    if (access === 'none') throw new NotFoundException(`No file ${fileKey}`);
    if (access === 'read') {
      throw new ForbiddenException(`You may not add a version to file ${fileKey}`);
    }
  }

  private key(value: string | undefined, name: string): number | undefined {
    return value === undefined ? undefined : parseKey(value, name);
  }
}

/** A form field's text, or the file's name: text PostgreSQL can hold, a name of a sane length. */
function checked(field: string, value: string): string {
  const problem = unstorableProblem(value);
  if (problem) throw new BadRequestException(unstorableDetail(field, problem));
  if (field !== 'id' && (!value || value.length > MAX_NAME_LENGTH)) {
    throw new BadRequestException(`${field} must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  return value;
}

function versionDto({
  version,
  name,
  contentType,
  size,
  sha256,
  dateCreated,
}: VersionRecord): VersionDto {
  return { version, name, contentType, size, sha256, dateCreated };
}

/**
 * A form that could not be read. The reader's refusals (a file over MAX_UPLOAD_BYTES, too
 * many parts) carry their status; busboy's (a body cut short, a wrong or missing
 * boundary) are plain errors, all the client's: 400.
 */
function unreadableForm(error: unknown): HttpException {
  if (error instanceof HttpException) return error;
  const message = (error as { message?: string }).message;
  return new BadRequestException(
    `The form could not be read as multipart/form-data: ${message ?? 'malformed'}`,
  );
}

/**
 * A version's entries: its file created (version 1) or given a new version, and the
 * version row under it. The file takes the version's name and type.
 */
function versionEntries(version: VersionRecord & RecordedOwner): ChangeEntry[] {
  const owner = ownerOfRow({
    id_organization: version.idOrganization,
    id_business_unit: version.idBusinessUnit,
    id_user: version.idUser,
  });
  const first = version.version === 1;
  const file: ChangeEntry = {
    operation: first ? 'created' : 'version_added',
    entity: 'file',
    recordKey: version.fileKey,
    owner,
    changes: {
      name: { new: version.name },
      content_type: { new: version.contentType },
      latest_version: first ? { new: 1 } : { old: version.version - 1, new: version.version },
    },
  };
  const row: ChangeEntry = {
    operation: 'created',
    entity: 'file_version',
    recordKey: version.versionKey,
    owner,
    parent: file,
    changes: {
      id_file: { new: version.fileKey },
      version: { new: version.version },
      name: { new: version.name },
      content_type: { new: version.contentType },
      size: { new: version.size },
      sha256: { new: version.sha256 },
      driver: { new: version.driver },
      date_created: { new: version.dateCreated.toISOString() },
    },
  };
  return [file, row];
}
