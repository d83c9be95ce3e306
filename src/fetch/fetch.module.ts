import { Global, Module } from '@nestjs/common';
import { FetchController } from './fetch.controller';
import { FetchCursors } from './fetch.paging';
import { FetchService } from './fetch.service';

/**
 * The FETCH query language: parse, compile to one statement, run, describe. Global, as
 * the entity engine is: an application's providers may inject FetchService.
 */
@Global()
@Module({
  controllers: [FetchController],
  providers: [FetchService, FetchCursors],
  exports: [FetchService],
})
export class FetchModule {}
