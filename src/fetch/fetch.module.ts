import { Module } from '@nestjs/common';
import { FetchController } from './fetch.controller';
import { FetchService } from './fetch.service';

/** The FETCH query language: parsing now; compiling and running it come next. */
@Module({
  controllers: [FetchController],
  providers: [FetchService],
  exports: [FetchService],
})
export class FetchModule {}
