// DispatchCore
