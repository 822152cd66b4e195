/** "ageRange" → "Age range": the readable half of a demographic field's label. */
export const readableField = (field: string): string => field.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`).replace(/^./, (c) => c.toUpperCase());
