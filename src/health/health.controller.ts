import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckResult,
  HealthCheckService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { Public } from '../http/caller.decorators';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
  ) {}

  @Get()
  @Public()
  @HealthCheck()
  async check(): Promise<HealthCheckResult> {
    try {
      return await this.health.check([
        () => this.database.pingCheck('database', { timeout: 3000 }),
      ]);
    } catch (error) {
      throw error instanceof ServiceUnavailableException ? unhealthy(error) : error;
    }
  }
}

/** Terminus's failure body, as the `{detail}` every error of this server has. */
function unhealthy(error: ServiceUnavailableException): ServiceUnavailableException {
  const { error: failed = {} } = error.getResponse() as HealthCheckResult;
  const parts = Object.entries(failed).map(
    ([name, state]) => `${name} is down${state?.message ? ` (${String(state.message)})` : ''}`,
  );
  return new ServiceUnavailableException(`Unhealthy: ${parts.join('; ') || 'a check failed'}`);
}
