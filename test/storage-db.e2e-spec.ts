import { storageSuite } from './helpers/storage-suite';

storageSuite('db');
