import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { HttpModule } from '../http/http.module';
import { ModelModule } from '../model/model.module';
import { FetchController } from './fetch.controller';
import { FetchExecutor } from './fetch.executor';
import { FetchCursors } from './fetch.paging';
import { FetchService } from './fetch.service';

/** The FETCH query language: parse, compile to one statement, run, describe. */
@Module({
  imports: [HttpModule, ModelModule, AccessModule],
  controllers: [FetchController],
  providers: [FetchService, FetchCursors, FetchExecutor],
  exports: [FetchService],
})
export class FetchModule {}
