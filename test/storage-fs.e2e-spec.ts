import { storageSuite } from './helpers/storage-suite';

storageSuite('fs');
