import { Init1795333343006 } from './1795333343006-Init';
import { DemoDomain1795334775838 } from './1795334775838-DemoDomain';
import { ServerSecret1795400000000 } from './1795400000000-ServerSecret';

/** Listed, not globbed, so the same list works compiled, under ts-jest and in the CLI. */
export const MIGRATIONS = [Init1795333343006, DemoDomain1795334775838, ServerSecret1795400000000];
