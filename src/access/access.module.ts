import { Module } from '@nestjs/common';
import { ModelModule } from '../model/model.module';
import { AccessChanges } from './access.changes';
import { AccessRepository } from './access.repository';
import { AccessService } from './access.service';

/** Security roles as they apply: the AccessScope every data path asks. */
@Module({
  imports: [ModelModule],
  providers: [AccessService, AccessRepository, AccessChanges],
  exports: [AccessService],
})
export class AccessModule {}
