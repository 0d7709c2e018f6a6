import Form from "@rjsf/core";
import type { RJSFSchema, WidgetProps, RegistryWidgetsType } from "@rjsf/utils";
import { customizeValidator } from "@rjsf/validator-ajv8";

/** Formats of the spec: color (picker), date-time (picker), uri (URL input). */
const validator = customizeValidator({ customFormats: { color: /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/ } });

/** Booleans are toggles. */
function ToggleWidget(props: WidgetProps) {
  return (
    <label className="toggle">
      <input
        id={props.id}
        type="checkbox"
        role="switch"
        checked={!!props.value}
        disabled={props.disabled || props.readonly}
        aria-checked={!!props.value}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <span className="toggle-track" aria-hidden />
      <span>{props.label}</span>
    </label>
  );
}

/** A color picker that also shows the value. */
function ColorWidget(props: WidgetProps) {
  const value = typeof props.value === "string" && /^#[0-9a-fA-F]{6}$/.test(props.value) ? props.value : "#000000";
  return (
    <span className="color-widget">
      <input
        id={props.id}
        type="color"
        value={value}
        disabled={props.disabled || props.readonly}
        aria-label={props.label}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <code>{props.value ?? ""}</code>
    </span>
  );
}

const widgets: RegistryWidgetsType = { CheckboxWidget: ToggleWidget, ColorWidget };

/**
 * A JSON-Schema settings form (RJSF): format color -> color picker, date-time -> date-time picker,
 * uri -> URL input; string -> text, number/integer -> number, boolean -> toggle. Every change is
 * reported at once (live preview); `name` mirrors the value into a hidden input for plain forms.
 */
export function SettingsForm({
  schema,
  value,
  onChange,
  name,
  idPrefix = "settings",
}: {
  schema: Record<string, unknown>;
  value: Record<string, unknown>;
  onChange?: (v: Record<string, unknown>) => void;
  name?: string;
  idPrefix?: string;
}) {
  return (
    <div className="settings-form">
      <Form
        schema={schema as RJSFSchema}
        formData={value}
        validator={validator}
        widgets={widgets}
        idPrefix={idPrefix}
        liveValidate
        showErrorList={false}
        onChange={(e) => onChange?.((e.formData ?? {}) as Record<string, unknown>)}
        uiSchema={{ "ui:submitButtonOptions": { norender: true } }}
        tagName="div"
      />
      {name ? <input type="hidden" name={name} value={JSON.stringify(value)} /> : null}
    </div>
  );
}
