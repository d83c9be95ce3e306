import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { ChangesModule } from '../changes/changes.module';
import { ModelModule } from '../model/model.module';
import { DbStorageBackend } from './backends/db.backend';
import { FileChunkRepository } from './backends/file-chunk.repository';
import { FsStorageBackend } from './backends/fs.backend';
import { Sha256Hasher } from './backends/sha256.hasher';
import { STORAGE_BACKENDS } from './backends/storage-backend';
import { STORAGE_ENTITIES } from './entities';
import { FileRepository } from './file.repository';
import { OrphanSweeper } from './orphan-sweeper';
import { StorageController } from './storage.controller';
import { StorageService } from './storage.service';

/** Versioned files: /storage, the file records, and the backends holding the bytes. */
@Module({
  imports: [TypeOrmModule.forFeature(STORAGE_ENTITIES), ModelModule, AccessModule, ChangesModule],
  controllers: [StorageController],
  providers: [
    Sha256Hasher,
    FsStorageBackend,
    DbStorageBackend,
    {
      // Every backend stays readable: a version names the one its bytes are in.
      provide: STORAGE_BACKENDS,
      inject: [FsStorageBackend, DbStorageBackend],
      useFactory: (fs: FsStorageBackend, db: DbStorageBackend) => ({ fs, db }),
    },
    FileRepository,
    FileChunkRepository,
    StorageService,
    OrphanSweeper,
  ],
})
export class StorageModule {}
