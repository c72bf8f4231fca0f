import { isolatedTests } from './isolated-suite.ts';

isolatedTests('part 2', 25);
