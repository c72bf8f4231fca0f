import { isolatedTests } from './isolated-suite.ts';

isolatedTests('part 1', 25);
