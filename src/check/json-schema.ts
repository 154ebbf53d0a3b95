import AjvModule, { type ValidateFunction } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv is CommonJS: under NodeNext its classes sit on `default`.
const Ajv = AjvModule.default;
const Ajv2020 = Ajv2020Module.default;
const addFormats = formatsModule.default;

export type Compiled = { ok: true; validate: ValidateFunction } | { ok: false; message: string };

// ownProperties: a schema requiring `toString` is not satisfied by what every object inherits.
const options = { strict: false, allErrors: false, validateSchema: false, addUsedSchema: false, ownProperties: true } as const;
let validators: { draft7: InstanceType<typeof Ajv>; draft2020: InstanceType<typeof Ajv2020> } | undefined;

function instances() {
  if (!validators) {
    const draft7 = new Ajv(options);
    const draft2020 = new Ajv2020(options);
    addFormats(draft7);
    addFormats(draft2020);
    validators = { draft7, draft2020 };
  }
  return validators;
}

const cache = new WeakMap<object, Compiled>();

/**
 * Compiles a tool's inputSchema or outputSchema with the JSON Schema dialect it names
 * (2020-12 and 2019-09 with the 2020 validator, anything else as draft-07). Cached per schema object.
 */
export function compileSchema(schema: object): Compiled {
  const known = cache.get(schema);
  if (known) return known;
  const { $schema, ...rest } = schema as { $schema?: unknown };
  const modern = typeof $schema === 'string' && /(2020-12|2019-09)/.test($schema);
  let compiled: Compiled;
  try {
    compiled = { ok: true, validate: (modern ? instances().draft2020 : instances().draft7).compile(rest) };
  } catch (error) {
    compiled = { ok: false, message: (error as Error).message };
  }
  cache.set(schema, compiled);
  return compiled;
}

/** The validator's first complaints, as one line. */
export function describeSchemaErrors(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`)
    .join('; ');
}
