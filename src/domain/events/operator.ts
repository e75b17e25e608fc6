/** `operator.logged-out`: every replica closes the operator's live connections (spec 5.1 logout). */
export interface OperatorLoggedOutData {
  operatorUrn: string;
}

export interface OperatorEventDataByType {
  "operator.logged-out": OperatorLoggedOutData;
}
