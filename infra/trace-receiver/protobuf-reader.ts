// The protobuf wire format, read only: enough to walk any message field by field and skip
// what the caller does not know. Every read is bounds-checked, so a truncated or hostile body
// throws instead of reading past its end.

/** Wire types (https://protobuf.dev/programming-guides/encoding/#structure). */
export const WIRE = { VARINT: 0, I64: 1, LEN: 2, SGROUP: 3, EGROUP: 4, I32: 5 } as const;

export interface Tag {
  field: number;
  wireType: number;
}

export class ProtobufReader {
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private pos: number;
  private readonly end: number;

  constructor(bytes: Uint8Array, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.pos = start;
    this.end = end;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  tag(): Tag {
    const key = this.varint();
    const field = Math.floor(key / 8);
    if (field === 0) throw new RangeError("protobuf: field number 0");
    return { field, wireType: key % 8 };
  }

  /** An unsigned varint of up to 64 bits, as a bigint (int64 fields, negative values). */
  varint64(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      const byte = this.byte();
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, result);
    }
    throw new RangeError("protobuf: varint longer than 10 bytes");
  }

  /** A varint as a number: tags, lengths, enums and bools (exact up to 2^53). */
  varint(): number {
    let result = 0;
    for (let i = 0; i < 10; i++) {
      const byte = this.byte();
      result += (byte & 0x7f) * 2 ** (7 * i);
      if (byte < 0x80) return result;
    }
    throw new RangeError("protobuf: varint longer than 10 bytes");
  }

  fixed32(): number {
    return this.view.getUint32(this.advance(4), true);
  }

  fixed64(): bigint {
    return this.view.getBigUint64(this.advance(8), true);
  }

  double(): number {
    return this.view.getFloat64(this.advance(8), true);
  }

  /** The payload of a length-delimited field, without copying. */
  bytesField(): Uint8Array {
    const length = this.varint();
    const start = this.advance(length);
    return this.bytes.subarray(start, start + length);
  }

  string(): string {
    return Buffer.from(this.bytesField()).toString("utf8");
  }

  /** A reader over an embedded message. */
  message(): ProtobufReader {
    const length = this.varint();
    const start = this.advance(length);
    return new ProtobufReader(this.bytes, start, start + length);
  }

  /** Skips the value of a field the caller does not decode, whatever its wire type. */
  skip(tag: Tag): void {
    switch (tag.wireType) {
      case WIRE.VARINT:
        this.varint64();
        return;
      case WIRE.I64:
        this.advance(8);
        return;
      case WIRE.LEN:
        this.advance(this.varint());
        return;
      case WIRE.I32:
        this.advance(4);
        return;
      case WIRE.SGROUP:
        // A (deprecated) group runs to the end-group tag of the same field number.
        for (;;) {
          const inner = this.tag();
          if (inner.wireType === WIRE.EGROUP) {
            if (inner.field !== tag.field) throw new RangeError("protobuf: mismatched end group");
            return;
          }
          this.skip(inner);
        }
      default:
        throw new RangeError(`protobuf: wire type ${tag.wireType} at byte ${this.pos}`);
    }
  }

  private byte(): number {
    return this.bytes[this.advance(1)]!;
  }

  /** Moves past `length` bytes and returns where they start. */
  private advance(length: number): number {
    if (length > this.end - this.pos) throw new RangeError("protobuf: truncated message");
    const start = this.pos;
    this.pos += length;
    return start;
  }
}
