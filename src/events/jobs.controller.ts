import {
  BadRequestException,
  Controller,
  DefaultValuePipe,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  ParseUUIDPipe,
  Post,
  Query,
} from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { Requires } from '../access/requires.decorator';
import { Identity } from '../common/identity';
import { CurrentIdentity } from '../http/caller.decorators';
import { FailedJobDto } from './dto/failed-job.dto';
import { FAILED_JOBS_LIMIT, JobsService } from './jobs.service';

@ApiTags('jobs')
@Requires('manage-jobs')
@Controller('rest/jobs')
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get('failed')
  @ApiQuery({ name: 'limit', required: false, description: `At most ${FAILED_JOBS_LIMIT}` })
  @ApiQuery({
    name: 'after',
    required: false,
    description: "The next page: the jobs after this one (the last page's last id)",
  })
  @ApiOkResponse({
    type: [FailedJobDto],
    description: "The organization's jobs that failed every attempt, oldest first",
  })
  failed(
    @CurrentIdentity() identity: Identity,
    @Query('limit', new DefaultValuePipe(50), ParseIntPipe) limit: number,
    @Query('after', new ParseUUIDPipe({ optional: true, exceptionFactory: notAJobId('after') }))
    after?: string,
  ): Promise<FailedJobDto[]> {
    return this.jobs.failed(identity, limit, after);
  }

  @Post('failed/:id/retry')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Tried once more, at once' })
  retry(
    @CurrentIdentity() identity: Identity,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: notAJobId('id') })) id: string,
  ): Promise<void> {
    return this.jobs.retry(identity, id);
  }
}

function notAJobId(name: string): () => BadRequestException {
  return () => new BadRequestException(`${name} must be a failed job's id (a uuid)`);
}
