package corpus

// Shop is a spec of one table in the overloaded style with global
// indexes (one of keys only, one of an include projection), a local
// index and an inverted index (the planner's and the outputs' tests use it), ending
// in patterns:, to which a test adds its patterns.
const Shop = `
version: 1
package: shop
tables:
  Shop:
    partitionKey: PK
    sortKey: SK
    indexes:
      GSI1: {partitionKey: GSI1PK, sortKey: GSI1SK}
      ByKeys: {partitionKey: GSI2PK, sortKey: GSI2SK, projection: keys}
      ByTotal: {partitionKey: GSI3PK, sortKey: GSI3SK, projection: [total]}
      LSI1: {local: true, sortKey: LSI1SK}
      Inverted: {partitionKey: SK, sortKey: PK}
entities:
  Customer:
    attributes:
      customerId: string
      name: string
      email: string
    keys:
      primary: {pk: "CUSTOMER#{customerId}", sk: "PROFILE"}
      GSI1: {pk: "EMAIL#{email}", sk: "CUSTOMER"}
  Order:
    attributes:
      customerId: string
      orderId: string
      placed: time
      status: {type: enum, values: [open, shipped]}
      total: int
      note: {type: string, optional: true}
    keys:
      primary: {pk: "CUSTOMER#{customerId}", sk: "ORDER#{placed}#{orderId}"}
      GSI1: {pk: "STATUS#{status}", sk: "{placed}#{orderId}"}
      ByKeys: {pk: "ORDERID#{orderId}", sk: "ORDER"}
      ByTotal: {pk: "TOTALS#{customerId}", sk: "{total}#{orderId}"}
      LSI1: {sk: "TOTAL#{total}#{orderId}"}
  Line:
    attributes:
      customerId: string
      orderId: string
      sku: string
      qty: int
    keys:
      primary: {pk: "CUSTOMER#{customerId}", sk: "LINE#{orderId}#{sku}"}
patterns:
`
