/** The parser ships no types; it returns prom2json-shaped families (described where it is used). */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
