import { parseKeyRing } from '../../shared/privacy/key-encryption-key.ts';
import { installProcessKeyRing } from '../../shared/privacy/process-key-ring.ts';

/** The key-encryption key of the benches (PERSONAL_DATA_KEK): installed on import, for the projections they run. */
export const BENCH_PERSONAL_DATA_KEK = 'bench:YmVuY2gtb25seS1rZWstMzItYnl0ZXMtbG9uZy4uLi4=';
installProcessKeyRing(parseKeyRing(BENCH_PERSONAL_DATA_KEK));
