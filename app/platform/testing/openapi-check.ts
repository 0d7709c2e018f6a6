/**
 * Checks real answers against the OpenAPI document's schemas (JSON Schema 2020-12, with ajv).
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { expect } from "vitest";

export function responseChecker(doc: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return function check(path: string, method: string, status: number, body: unknown) {
    const op = doc.paths[path]?.[method.toLowerCase()];
    expect(op, `${method} ${path} is documented`).toBeTruthy();
    const response = op.responses[String(status)];
    expect(response, `${method} ${path} documents ${status}`).toBeTruthy();
    const schema = response.content?.["application/json"]?.schema;
    if (!schema) return;
    const ref = (schema.$ref as string).replace("#/components/schemas/", "");
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `doc#/components/schemas/${ref}` });
      compiled.set(ref, validate);
    }
    const ok = validate(body);
    expect(ok, `${method} ${path} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  };
}
