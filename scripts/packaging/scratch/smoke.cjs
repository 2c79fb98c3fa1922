// CommonJS consumer: every module is loaded with require().
const { runSmoke } = require('./smoke-body.cjs');

runSmoke({ system: 'cjs', load: async (specifier) => require(specifier), projectDirectory: __dirname }).catch(
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
