// Jest 30 runs ES modules as they are (no transform) under node --experimental-vm-modules.
export default { testEnvironment: 'node', transform: {} }
