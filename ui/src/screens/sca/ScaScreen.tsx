// stub
export function ScaScreen() {
  return <div />;
}
