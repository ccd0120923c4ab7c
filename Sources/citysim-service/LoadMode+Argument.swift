import ArgumentParser
import ServiceLoad

// `--mode` parsed at parse time: a bad value is a usage error naming the option and the choices.
extension LoadOptions.Mode: ExpressibleByArgument {}
