function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** In a property value `:` and `,` separate too. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A GitHub Actions workflow command, `::command key=value,...::message`, escaped as GitHub documents. */
export function workflowCommand(
  command: string,
  props: ReadonlyArray<readonly [string, string | number]>,
  message: string,
): string {
  const list = props.map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
  return `::${command} ${list.join(',')}::${escapeData(message)}`;
}
