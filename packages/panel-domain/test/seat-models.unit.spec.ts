import { describe, expect, it } from "vitest";
import { modelIndexForSeat, PANEL_SEATS } from "../src/index.ts";

const seating = (models: number) => PANEL_SEATS.map((_, seat) => modelIndexForSeat(seat, models));

describe("modelIndexForSeat", () => {
  it("seats every model of a mixed panel, in blocks of consecutive seats", () => {
    expect(seating(1)).toEqual([0, 0, 0, 0, 0]);
    expect(seating(2)).toEqual([0, 0, 0, 1, 1]);
    expect(seating(3)).toEqual([0, 0, 1, 1, 2]);
    expect(seating(4)).toEqual([0, 0, 1, 2, 3]);
    expect(seating(5)).toEqual([0, 1, 2, 3, 4]);
  });

  it("shows every model that holds two seats the pair in both orders", () => {
    for (let models = 1; models <= 5; models++) {
      const orders = new Map<number, Set<string>>();
      PANEL_SEATS.forEach(({ order }, seat) => {
        const model = modelIndexForSeat(seat, models);
        orders.set(model, (orders.get(model) ?? new Set()).add(order));
      });
      expect(orders.size, `${models} models`).toBe(models);
      for (const [model, seen] of orders) {
        const seats = PANEL_SEATS.filter((_, seat) => modelIndexForSeat(seat, models) === model).length;
        if (seats >= 2) expect([...seen].sort(), `${models} models, model ${model}`).toEqual(["ab", "ba"]);
      }
    }
  });

  it("refuses a panel without models and a seat that is not one", () => {
    expect(() => modelIndexForSeat(0, 0)).toThrow(RangeError);
    expect(() => modelIndexForSeat(-1, 2)).toThrow(RangeError);
  });
});
