import { readableField } from "./field-names.ts";

/** One demographic as a select, labelled with a readable name and the API's field name: "Age range (ageRange)". */
export function DemographicSelect({ field, values, value, onChange }: { field: string; values: string[]; value: string; onChange: (value: string) => void }) {
  return (
    <label>
      <span>
        {readableField(field)} <span className="field-name">({field})</span>
      </span>
      <select name={field} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">not set (the default)</option>
        {values.map((v) => <option key={v} value={v}>{v}</option>)}
      </select>
    </label>
  );
}
