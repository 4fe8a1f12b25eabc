// stub
export function ComposerScreen() {
  return <div />;
}
