// The OpenAPI document as a consumer gets it: resolved through the package's exports.
import { createRequire } from 'node:module'
import { Validator } from '@seriousme/openapi-schema-validator'
import document from 'tmaps-mock/openapi.json' with { type: 'json' }

const path = createRequire(import.meta.url).resolve('tmaps-mock/openapi.json')
const validator = new Validator()
const result = await validator.validate(document)
console.log(
  JSON.stringify({
    path: path.endsWith('/node_modules/tmaps-mock/openapi/tmaps.openapi.json'),
    valid: result.valid,
    version: validator.version,
    operations: Object.values(document.paths).flatMap((item) =>
      Object.keys(item).filter((k) => k !== 'servers'),
    ).length,
  }),
)
