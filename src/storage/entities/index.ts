import { FileVersion } from './file-version.entity';
import { StoredFile } from './stored-file.entity';

export const STORAGE_ENTITIES = [StoredFile, FileVersion];
