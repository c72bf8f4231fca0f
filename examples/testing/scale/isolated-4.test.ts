import { isolatedTests } from './isolated-suite.ts';

isolatedTests('part 4', 25);
