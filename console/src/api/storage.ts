import { ApiError, getJson, requestHeaders } from './http';

/** A stored version of a file (POST /storage's answer, GET /storage/{id}/versions' items). */
export interface FileVersion {
  id?: number;
  version: number;
  name: string;
  contentType: string;
  size: number;
  dateCreated: string;
}

/**
 * POST /storage: a new file, or a new version of file `id`. XMLHttpRequest, not fetch,
 * because only it reports the upload's progress (`onProgress` gets 0..1).
 */
export function uploadFile(
  file: File,
  options: { id?: number; onProgress?: (done: number) => void } = {},
): Promise<FileVersion> {
  const form = new FormData();
  if (options.id !== undefined) form.set('id', String(options.id));
  form.set('file', file);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/storage');
    requestHeaders('POST').forEach((value, name) => request.setRequestHeader(name, value));
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      const body = (request.response ?? {}) as FileVersion & ApiError['body'];
      if (request.status >= 200 && request.status < 300) resolve(body);
      else reject(new ApiError(request.status, { detail: request.statusText, ...body }));
    };
    request.onerror = () => reject(new ApiError(0, { detail: 'The upload could not be sent' }));
    request.send(form);
  });
}

export const fileVersions = (id: number) => getJson<FileVersion[]>(`/storage/${id}/versions`);

/** Where a version downloads from (the browser sends the session cookie). */
export const downloadUrl = (id: number, version: number) =>
  `/storage?id=${id}&version=${version}&action=download`;
