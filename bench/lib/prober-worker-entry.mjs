// Worker threads do not inherit `--import tsx` on every supported Node line; register it here.
import { register } from 'tsx/esm/api';

register();
await import('./prober-worker.ts');
