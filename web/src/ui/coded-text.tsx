/** A catalogue text with its numeric code in small print, as every refusal shows it. */
export function CodedText({ text, code }: { text: string; code?: number | undefined }) {
  return (
    <>
      {text}
      {code !== undefined
        ? (
          <>
            {" "}
            <small className="text-muted-foreground">({code})</small>
          </>
        )
        : null}
    </>
  );
}
