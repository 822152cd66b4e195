/**
 * A count with its noun, singular for exactly one: "1 credit", "0 credits", "3 images".
 *
 * @example
 * counted(1, "credit"); // "1 credit"
 * counted(4, "vote"); // "4 votes"
 */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;

/** The noun alone, for "4 of 5 votes" where the count is printed apart. */
export const nounFor = (n: number, noun: string, plural = `${noun}s`): string => (n === 1 ? noun : plural);
