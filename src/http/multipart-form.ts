import Busboy, { BusboyHeaders } from '@fastify/busboy';
import { HttpException, HttpStatus, PayloadTooLargeException } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';

export interface FormField {
  type: 'field';
  fieldname: string;
  value: string;
}

export interface FormFile {
  type: 'file';
  fieldname: string;
  filename: string;
  mimetype: string;
  /** Must be read (or destroyed) before the next part arrives. */
  file: Readable;
}

export type FormPart = FormField | FormFile;

export interface FormLimits {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
  parts: number;
}

/**
 * The parts of a multipart/form-data body in order, read with busboy from Node's request
 * on either platform (neither parses multipart bodies itself: Fastify is told to leave
 * them, Express has no parser for them). A file over `fileSize` fails its stream with a
 * 413; too many parts, files or fields is a 413; a body that is cut short or malformed
 * fails the iteration (and the file being read) with busboy's error.
 */
export async function* formParts(
  request: IncomingMessage,
  limits: FormLimits,
): AsyncGenerator<FormPart> {
  const parser = Busboy({ headers: request.headers as BusboyHeaders, limits });
  const arrived: (FormPart | Error | null)[] = [];
  let wake: (() => void) | undefined;
  let current: Readable | undefined;
  const push = (item: FormPart | Error | null) => {
    arrived.push(item);
    wake?.();
  };
  const fail = (error: Error) => {
    current?.destroy(error);
    push(error);
  };
  const tooMany = (what: string) => () =>
    fail(
      new HttpException({ detail: `The form has too many ${what}` }, HttpStatus.PAYLOAD_TOO_LARGE),
    );

  parser.on('field', (fieldname: string, value: string) =>
    push({ type: 'field', fieldname, value }),
  );
  parser.on(
    'file',
    (fieldname: string, file: Readable, filename: string, _e: string, mimetype: string) => {
      current = file;
      // busboy emits a failed body's error on the file too, read or not: the reader sees it
      // through `fail`, which destroys the file with it.
      file.on('error', () => undefined);
      file.once('limit', () =>
        file.destroy(
          new PayloadTooLargeException(
            `The file is larger than this server accepts (${limits.fileSize} bytes)`,
          ),
        ),
      );
      push({ type: 'file', fieldname, filename, mimetype, file });
    },
  );
  parser.on('partsLimit', tooMany('parts'));
  parser.on('filesLimit', tooMany('files'));
  parser.on('fieldsLimit', tooMany('fields'));
  parser.on('finish', () => push(null));
  parser.on('error', (error: Error) => fail(error));
  // A client that goes away mid-body ends no stream: busboy would wait for the rest.
  const onClose = () => {
    if (!request.complete) fail(new Error('The request was cut short'));
  };
  request.once('close', onClose);
  request.pipe(parser);
  try {
    for (;;) {
      while (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = arrived.shift()!;
      if (item === null) return;
      if (item instanceof Error) throw item;
      yield item;
    }
  } finally {
    request.off('close', onClose);
    request.unpipe(parser);
    // What the form still holds is read and dropped, so the response can be sent.
    request.resume();
  }
}
