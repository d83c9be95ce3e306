import { Init1795333343006 } from './1795333343006-Init';
import { DemoDomain1795334775838 } from './1795334775838-DemoDomain';
import { ServerSecret1795350000000 } from './1795350000000-ServerSecret';
import { Storage1795360786207 } from './1795360786207-Storage';
import { OpenId1795362652215 } from './1795362652215-OpenId';
import { LoginLimit1795400000000 } from './1795400000000-LoginLimit';
import { AccessControl1795547046060 } from './1795547046060-AccessControl';
import { OwnerAndLookupIndexes1795635395325 } from './1795635395325-OwnerAndLookupIndexes';
import { ChangeLog1795700000000 } from './1795700000000-ChangeLog';
import { Jobs1795800000000 } from './1795800000000-Jobs';
import { Webhooks1795900000000 } from './1795900000000-Webhooks';
import { WebhookPayloadJson1796000000000 } from './1796000000000-WebhookPayloadJson';
import { WebhookPayloadFromLog1796100000000 } from './1796100000000-WebhookPayloadFromLog';
import { ChangeLogHorizon1796200000000 } from './1796200000000-ChangeLogHorizon';
import { EventHandlers1796300000000 } from './1796300000000-EventHandlers';

/** Listed, not globbed, so the same list works compiled, under ts-jest and in the CLI. */
export const MIGRATIONS = [
  Init1795333343006,
  DemoDomain1795334775838,
  ServerSecret1795350000000,
  Storage1795360786207,
  OpenId1795362652215,
  LoginLimit1795400000000,
  AccessControl1795547046060,
  OwnerAndLookupIndexes1795635395325,
  ChangeLog1795700000000,
  Jobs1795800000000,
  Webhooks1795900000000,
  WebhookPayloadJson1796000000000,
  WebhookPayloadFromLog1796100000000,
  ChangeLogHorizon1796200000000,
  EventHandlers1796300000000,
];
