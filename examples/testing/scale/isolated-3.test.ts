import { isolatedTests } from './isolated-suite.ts';

isolatedTests('part 3', 25);
