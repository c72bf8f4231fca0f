// ES modules as they are (no transform): run jest with
// NODE_OPTIONS=--experimental-vm-modules, as jest's ESM guide says.
export default {
  rootDir: import.meta.dirname,
  testEnvironment: 'node',
  transform: {},
  testMatch: ['<rootDir>/*.test.js'],
};
