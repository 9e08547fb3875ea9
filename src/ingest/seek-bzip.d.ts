// Types for seek-bzip, which ships none: only the decode call this project makes.
declare module "seek-bzip" {
  const Bunzip: {
    decode(input: Uint8Array, output: { writeByte(byte: number): void }, multistream?: boolean): void;
  };
  export default Bunzip;
}
