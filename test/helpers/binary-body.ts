import type request from 'supertest';

/** Collects a response body as bytes, whatever its type: `.buffer(true).parse(binaryBody)`. */
export const binaryBody: Parameters<request.Test['parse']>[0] = (response, done) => {
  const stream = response as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};
